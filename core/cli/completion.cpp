// completion.cpp - the bash completion script from the commands' option tables.
#include "cli/completion.hpp"

#include <array>

namespace drover::cli {

namespace {

// The shell functions every command's completion shares. Values come from the cluster the
// commands reach (SLURM_CONF), quietly nothing when it cannot be reached.
constexpr std::string_view kPrelude =
    R"(# Bash completion for Drover's commands, made by `drover --completion` from the option tables
# the commands parse with. Installed under each command's name (bash-completion loads it by name).

# _drover_values KIND CUR: the words of KIND (jobs, partitions, nodes, users, files, commands)
# that start with CUR, into COMPREPLY.
_drover_values() {
  local words
  case $1 in
    jobs) words=$(squeue -h -o %i 2>/dev/null) ;;
    partitions) words=$(sinfo -h -o %R 2>/dev/null) ;;
    nodes) words=$(sinfo -h -N -o %N 2>/dev/null) ;;
    users) mapfile -t COMPREPLY < <(compgen -u -- "$2"); return ;;
    files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$2"); return ;;
    commands) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -c -- "$2"); return ;;
    *) COMPREPLY=(); return ;;
  esac
  mapfile -t COMPREPLY < <(compgen -W "$words" -- "$2")
}

# _drover_option_value OPT CUR KINDS: completes the value of OPT from "OPT=KIND ..." (names
# compared without case, as scontrol reads its keys).
_drover_option_value() {
  local k
  for k in $3; do
    if [ "${k%%=*}" = "$1" ] || [ "${k%%=*}" = "${1,,}" ]; then
      _drover_values "${k#*=}" "$2"; return
    fi
  done
  COMPREPLY=()
}

# _drover_scontrol CUR: scontrol's command words, what show takes, and the ids they name.
_drover_scontrol() {
  local i words=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ ${COMP_WORDS[i]} == -* || ${COMP_WORDS[i]} == = ]] || words+=("${COMP_WORDS[i]}")
  done
  case ${#words[@]}:${words[0]:-} in
    0:) mapfile -t COMPREPLY < <(compgen -W "$_drover_scontrol_verbs" -- "$1") ;;
    1:show) mapfile -t COMPREPLY < <(compgen -W "$_drover_scontrol_show" -- "$1") ;;
    1:hold | 1:uhold | 1:release | 1:requeue | 1:requeuehold | 1:top | 1:suspend | 1:resume)
      _drover_values jobs "$1" ;;
    1:reboot_nodes | 1:cancel_reboot) _drover_values nodes "$1" ;;
    1:update)
      mapfile -t COMPREPLY < <(compgen -W "JobId= NodeName= PartitionName= ReservationName= StepId=" -- "$1")
      compopt -o nospace 2>/dev/null ;;
    2:show)
      case ${words[1]} in
        job*) _drover_values jobs "$1" ;;
        node*) _drover_values nodes "$1" ;;
        part*) _drover_values partitions "$1" ;;
        *) COMPREPLY=() ;;
      esac ;;
    *) COMPREPLY=() ;;
  esac
}

_drover_complete() {
  local cmd=${COMP_WORDS[0]##*/} cur=${COMP_WORDS[COMP_CWORD]} prev="" opts="" takes="" kinds="" args=""
  [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
  case $cmd in
)";

constexpr std::string_view kEpilogue = R"(    *) return ;;
  esac
  # --opt=VALUE (bash splits the word at '='), or --opt VALUE for an option that takes one.
  if [ "$cur" = "=" ]; then
    _drover_option_value "$prev" "" "$kinds"; return
  elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
    _drover_option_value "${COMP_WORDS[COMP_CWORD - 2]}" "$cur" "$kinds"; return
  elif [[ " $takes " == *" $prev "* ]]; then
    _drover_option_value "$prev" "$cur" "$kinds"; return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur"); return
  fi
  case $args in
    scontrol) _drover_scontrol "$cur" ;;
    "") COMPREPLY=() ;;
    *) _drover_values "$args" "$cur" ;;
  esac
}
)";

// The kind of value an option names, by its long name ("" when completion cannot know it).
std::string_view value_kind(std::string_view command, std::string_view long_name) {
    if (long_name == "job" || long_name == "jobs" || long_name == "jobid") return "jobs";
    if (long_name == "partition") return "partitions";
    if (long_name == "nodelist" || long_name == "exclude") return "nodes";
    if (long_name == "nodes" && command == "sinfo") return "nodes";
    if (long_name == "nodefile") return "files";
    if (long_name == "user" || long_name == "users") return "users";
    if (long_name == "output" || long_name == "error" || long_name == "input" ||
        long_name == "chdir")
        return "files";
    return "";
}

// What a command's words that are no option name: jobs (scancel), a script, a program, ...
std::string_view argument_kind(std::string_view command) {
    if (command == "scancel") return "jobs";
    if (command == "scontrol") return "scontrol";
    if (command == "sbatch" || command == "sbcast") return "files";
    if (command == "srun" || command == "salloc") return "commands";
    return "";
}

// Appends word to a space-separated list.
void add(std::string &list, std::string_view word) {
    list.append(list.empty() ? "" : " ").append(word);
}

std::string command_case(const CommandDoc &doc) {
    std::string opts, takes, kinds;
    for (const auto &s : doc.options) {
        std::string long_name = s.long_name ? std::string("--") + s.long_name : "";
        std::string short_name = s.short_name ? std::string("-") + s.short_name : "";
        if (!long_name.empty()) add(opts, long_name);
        std::string_view kind = s.long_name ? value_kind(doc.name, s.long_name) : "";
        for (const auto &n : {long_name, short_name}) {
            if (n.empty()) continue;
            // An optional value with a kind (squeue -j) is completed as if required.
            if (s.arg == Arg::required || (s.arg == Arg::optional && !kind.empty())) add(takes, n);
            if (!kind.empty()) add(kinds, n + "=" + std::string(kind));
        }
    }
    if (doc.name == "scontrol") add(kinds, "jobid=jobs nodename=nodes partitionname=partitions");
    return "    " + std::string(doc.name) + ")\n      opts=\"" + opts + "\"\n      takes=\"" +
           takes + "\"\n      kinds=\"" + kinds + "\"\n      args=\"" +
           std::string(argument_kind(doc.name)) + "\" ;;\n";
}

} // namespace

std::span<const std::string_view> scontrol_show_entities() {
    static constexpr std::array<std::string_view, 10> kShow = {
        "job",  "node",     "partition", "reservation", "config",
        "step", "licenses", "hostnames", "hostlist",    "hostlistsorted"};
    return kShow;
}

std::string bash_completion(std::span<const CommandDoc> docs,
                            std::span<const std::string_view> scontrol_verbs) {
    std::string out(kPrelude), names;
    for (const auto &d : docs) {
        if (d.section != 1) continue;
        out += command_case(d);
        names += " " + std::string(d.name);
    }
    out += kEpilogue;
    std::string verbs, show;
    for (auto v : scontrol_verbs) add(verbs, v);
    for (auto v : scontrol_show_entities()) add(show, v);
    out += "_drover_scontrol_verbs=\"" + verbs + "\"\n_drover_scontrol_show=\"" + show + "\"\n";
    out += "complete -F _drover_complete" + names + "\n";
    return out;
}

} // namespace drover::cli
