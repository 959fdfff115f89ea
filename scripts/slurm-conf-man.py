#!/usr/bin/env python3
"""slurm-conf-man.py ADMIN_GUIDE VERSION -- prints slurm.conf(5) as Drover reads the file, made at
build time from the administrator's guide's key tables (section 3: the top-level keys, the daemon
tuning keys, NodeName and PartitionName lines), so the man page and the guide say the same."""
import re
import sys

# (heading the table follows, the man page's subsection for it)
TABLES = (("### Top-level keys the parser knows", "Top-level keys"),
          ("Daemon tuning keys:", "Daemon tuning keys"),
          ("### NodeName lines", "NodeName lines"),
          ("### PartitionName lines", "PartitionName lines"))


def roff(text: str) -> str:
    """Markdown inline text as roff: `code` bold, *emphasis* italic, hyphens and backslashes escaped."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = re.sub(r"`([^`]*)`", r"\\fB\1\\fR", text)
    text = re.sub(r"\*([^*]+)\*", r"\\fI\1\\fR", text)
    return text


def rows_after(lines, heading):
    """The body rows of the first table after the line that starts with heading."""
    start = next(i for i, l in enumerate(lines) if l.startswith(heading))
    rows, seen_table = [], False
    for line in lines[start + 1:]:
        if line.startswith("|"):
            seen_table = True
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if cells[0] in ("key", "---") or set(cells[0]) <= {"-", " "}:
                continue
            rows.append(cells)
        elif seen_table:
            break
    return rows


def main() -> int:
    guide, version = sys.argv[1], sys.argv[2]
    lines = open(guide, encoding="utf-8").read().splitlines()
    out = [
        f'.TH SLURM.CONF 5 "" "Drover {version}" "Drover configuration"',
        ".SH NAME",
        "slurm.conf \\- the cluster's configuration, as Drover reads it",
        ".SH DESCRIPTION",
        "Drover's daemons and commands read Slurm's slurm.conf: \\fIKey\\fR=\\fIvalue\\fR pairs "
        "(keys in any case, several on a line), # comments, \\fBInclude\\fR, \\fBNodeName\\fR, "
        "\\fBPartitionName\\fR, \\fBNodeSet\\fR and \\fBDownNodes\\fR lines. It is found from "
        "\\fB\\-f\\fR, then $DROVER_CONF, then $SLURM_CONF, then /etc/slurm/slurm.conf. A key "
        "Drover does not know is warned about once and ignored; a value it cannot read stops the "
        "daemon or command with the file, line and key. The sections named below are those of "
        "Drover's administrator's guide.",
        ".SH KEYS",
    ]
    for heading, title in TABLES:
        out.append(f".SS {title}")
        for cells in rows_after(lines, heading):
            key, default, what = (cells + ["", "", ""])[:3]
            out.append(".TP")
            out.append(roff(key))
            out.append(roff(what) + ("" if what.endswith(".") else "."))
            if default:
                out += [".br", f"Default: {roff(default)}."]
    out += [
        ".SH SEE ALSO",
        "\\fBdroverctld\\fR(8), \\fBdroverd\\fR(8), \\fBsbatch\\fR(1), \\fBscontrol\\fR(1).",
        ".PP",
        "The administrator's guide (admin\\-guide.md) says more of each key, the node, partition "
        "and node set lines; the Slurm compatibility notes (compatibility.md) list every key "
        "Slurm has and what Drover does with it.",
    ]
    for line in out:
        print("\\&" + line if line.startswith(("'", ".")) and not re.match(r"^\.[A-Z]{2}\b", line) else line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
