#!/usr/bin/env python3
# long-functions.py - lists function bodies longer than N lines (default 100) in core/, plugins/ and
# sdk/, or the paths given: a brace-depth scan with comments and literals removed, where a body is a
# "{" opened in namespace or class scope after a ")". Usage: scripts/long-functions.py [N] [paths]
import os, re, sys, subprocess
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
roots = sys.argv[2:] or ['core', 'plugins', 'sdk']
files = subprocess.run(['git', 'ls-files'] + roots, capture_output=True, text=True).stdout.split()
def strip(src):
    out = re.sub(r'//[^\n]*', '', src)
    out = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), out, flags=re.S)
    out = re.sub(r'R"(\w*)\((.*?)\)\1"', lambda m: '""' + '\n' * m.group(0).count('\n'), out, flags=re.S)
    out = re.sub(r'"(\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(\\.|[^'\\\n])*'", "''", out)
    out = re.sub(r'^\s*#[^\n]*', '', out, flags=re.M)
    return out
for f in files:
    if not f.endswith(('.cpp', '.hpp', '.c', '.h')) or '_generated' in f: continue
    src = strip(open(f, errors='replace').read())
    stack = []  # kinds: 'scope' or 'func' or 'block'
    head_start = 0; line = 1; last = 0
    for i, ch in enumerate(src):
        if ch == '\n': line += 1
        elif ch == '{':
            head = src[last:i]
            inscope = all(s[0] == 'scope' for s in stack)
            if inscope and ')' in head and not re.search(r'\b(class|struct|enum|union|namespace)\b[^()]*$', head) and not re.search(r'=\s*$', head):
                name = re.sub(r'\s+', ' ', head.strip())[:70]
                stack.append(('func', line, name))
            elif inscope and not re.search(r'=\s*$|\)\s*$', head) and re.search(r'\b(class|struct|namespace|union|extern)\b|^\s*$', head):
                stack.append(('scope', line, ''))
            else:
                stack.append(('block', line, ''))
            last = i + 1
        elif ch == '}':
            if stack:
                k, l0, name = stack.pop()
                if k == 'func' and line - l0 + 1 > limit:
                    print(f"{line - l0 + 1:5d} {f}:{l0} {name}")
            last = i + 1
        elif ch == ';':
            last = i + 1
