#!/usr/bin/python3
"""openmetrics_check.py -- parses an OpenMetrics text page from stdin with the Prometheus
project's own parser (python3-prometheus-client), strictly: a page it refuses exits 1 with the
parser's reason. Prints one line per sample: NAME{label="value",...} VALUE (labels sorted), and
one "TYPE family type" line per family.
"""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families


def main() -> int:
    text = sys.stdin.read()
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser's own exception types vary by version
        print(f"unparsable: {e}")
        return 1
    for fam in families:
        print(f"TYPE {fam.name} {fam.type}")
        for s in fam.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
            value = int(s.value) if float(s.value).is_integer() else s.value
            print(f"{s.name}{{{labels}}} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
