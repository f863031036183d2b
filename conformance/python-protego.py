#!/usr/bin/python3
# Scrapy's robots.txt parser, protego, as `robotstxt conformance --batch-command` asks it (docs/testing-implementations.md):
# one JSON line in per case ({"robots": <file>, "agent": <token>, "url": <url>}), one {"verdict": ...} out, in order.
# Called as its documentation shows: Protego.parse(content), then can_fetch(url, user_agent); the file is
# decoded as Scrapy's RobotParser decodes a response body (UTF-8, undecodable bytes ignored). --version prints
# the version that ran (Debian's python3-protego in CI).
import json
import subprocess
import sys

from protego import Protego

if sys.argv[1:] == ['--version']:
    try:
        print(subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'python3-protego'], capture_output=True, text=True, check=True).stdout)
    except Exception:
        from importlib.metadata import version
        print(version('protego'))
    sys.exit(0)

for line in sys.stdin:
    case = json.loads(line)
    try:
        with open(case['robots'], 'rb') as file:
            content = file.read().decode('utf-8', errors='ignore')
        robots = Protego.parse(content)
        answer = {'verdict': 'allowed' if robots.can_fetch(case['url'], case['agent']) else 'disallowed'}
    except Exception as error:
        answer = {'error': f'{type(error).__name__}: {error}'}
    print(json.dumps(answer), flush=True)
