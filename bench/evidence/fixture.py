"""What the evidence scripts share: the commit they describe and the detection fixture's binary."""
import json, os, subprocess

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def commit():
    """The short commit of the checkout, marked when the tree has uncommitted changes."""
    described = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=root, capture_output=True,
                               text=True).stdout.strip()
    if subprocess.run(['git', 'diff', '--quiet', 'HEAD', '--', '.'], cwd=root).returncode != 0:
        described += ' (with uncommitted changes)'
    return described


def build_fixture():
    """Builds bench/detection-fixture's `detection` test binary in release and returns its path."""
    build = subprocess.run(['cargo', 'test', '--release', '-p', 'rtcompare-detection-fixture', '--test', 'detection',
                            '--no-run', '--message-format=json'], cwd=root, capture_output=True, text=True, check=True)
    return [json.loads(line)['executable'] for line in build.stdout.splitlines()
            if line.startswith('{') and json.loads(line).get('executable')][-1]
