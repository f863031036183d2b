#!/usr/bin/python3
# Python's standard urllib.robotparser as `robotstxt conformance --batch-command` asks it (docs/testing-implementations.md):
# one JSON line in per case ({"robots": <file>, "agent": <token>, "url": <url>}), one {"verdict": ...} out, in order.
# Called as its documentation shows: RobotFileParser().parse(lines), then can_fetch(useragent, url); the file
# is decoded as RobotFileParser.read() decodes a fetched one (UTF-8; a file that is not UTF-8 fails there,
# and is answered {"error"}). Every case parses its file, as the other adapters do. --version prints what ran.
import json
import platform
import sys
import urllib.robotparser

if sys.argv[1:] == ['--version']:
    print(f'Python {platform.python_version()}')
    sys.exit(0)

for line in sys.stdin:
    case = json.loads(line)
    try:
        with open(case['robots'], 'rb') as file:
            text = file.read().decode('utf-8')
        parser = urllib.robotparser.RobotFileParser()
        parser.parse(text.splitlines())
        answer = {'verdict': 'allowed' if parser.can_fetch(case['agent'], case['url']) else 'disallowed'}
    except Exception as error:  # what the library raised: the case's error, the run goes on
        answer = {'error': f'{type(error).__name__}: {error}'}
    print(json.dumps(answer), flush=True)
