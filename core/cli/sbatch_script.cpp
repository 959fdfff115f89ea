// sbatch_script.cpp - batch script checks, #SBATCH directive scanning, --wrap and --export.
#include <cstring>

#include "cli/sbatch_opts.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

bool only_whitespace(std::string_view s) {
    for (char c : s)
        if (!is_blank(c) && c != '\n') return false;
    return true;
}

std::string line_prefix(int line) {
    return "script line " + str_i(line) + ": ";
}

// Splits the text after "#SBATCH" into arguments: whitespace separates, single and double quotes
// group (and are removed), an unquoted '#' starting an argument ends the line.
std::vector<std::string> directive_args(std::string_view rest, int line) {
    std::vector<std::string> args;
    std::size_t i = 0;
    while (true) {
        while (i < rest.size() && is_blank(rest[i])) ++i;
        if (i >= rest.size() || rest[i] == '#') break;
        std::string arg;
        while (i < rest.size() && !is_blank(rest[i])) {
            char c = rest[i];
            if (c == '"' || c == '\'') {
                std::size_t close = rest.find(c, i + 1);
                if (close == std::string_view::npos)
                    throw ParseError(line_prefix(line) + "unterminated quote");
                arg.append(rest.substr(i + 1, close - i - 1));
                i = close + 1;
                continue;
            }
            arg.push_back(c);
            ++i;
        }
        args.push_back(std::move(arg));
    }
    return args;
}

bool valid_var_name(std::string_view name) {
    if (name.empty()) return false;
    for (char c : name)
        if (c == '=' || c == '\0') return false;
    return true;
}

} // namespace

std::string wrap_script(std::string_view command) {
    std::string s = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n";
    s.append(command);
    s.push_back('\n');
    return s;
}

void check_batch_script(std::string_view script) {
    if (script.empty()) throw ParseError("Batch script is empty!");
    if (only_whitespace(script)) throw ParseError("Batch script contains only whitespace!");
    if (!script.starts_with("#!"))
        throw ParseError(
            "This does not look like a batch script.  The first line must start with #! "
            "followed by the path to an interpreter.\nFor instance: #!/bin/sh");
    if (script.find("\r\n") != std::string_view::npos)
        throw ParseError(
            "Batch script contains DOS line breaks (\\r\\n)\ninstead of expected UNIX line "
            "breaks (\\n).");
    if (script.find('\0') != std::string_view::npos)
        throw ParseError("Batch script contains NUL characters");
}

std::vector<Directive> scan_directives(std::string_view script) {
    std::vector<Directive> out;
    int line_no = 0, group = 0;
    while (!script.empty()) {
        std::size_t nl = script.find('\n');
        std::string_view line = script.substr(0, nl);
        script = nl == std::string_view::npos ? std::string_view() : script.substr(nl + 1);
        ++line_no;
        if (line.starts_with("#SBATCH") && (line.size() == 7 || is_blank(line[7]))) {
            auto args = directive_args(line.substr(7), line_no);
            // "#SBATCH hetjob" (or its old name "packjob") starts the next component.
            if (args.size() == 1 && (args[0] == "hetjob" || args[0] == "packjob"))
                ++group;
            else
                out.push_back({line_no, std::move(args), group});
            continue;
        }
        if (line.starts_with("#")) continue;
        if (only_whitespace(line)) continue;
        break; // the first command: directives after it are ordinary comments
    }
    return out;
}

Env export_environment(std::string_view spec, const Env &env) {
    bool all = false, none = false;
    std::vector<std::string> names;
    Env explicit_values;
    for (const auto &item : split(spec, ',')) {
        if (iequals(item, "ALL")) {
            all = true;
        } else if (iequals(item, "NONE") || iequals(item, "NIL")) {
            none = true;
        } else if (auto eq = item.find('='); eq != std::string::npos) {
            std::string name = item.substr(0, eq);
            if (!valid_var_name(name)) throw ParseError("invalid --export value '" + item + "'");
            explicit_values.emplace_back(name, item.substr(eq + 1));
        } else {
            if (!valid_var_name(item)) throw ParseError("invalid --export value '" + item + "'");
            names.push_back(item);
        }
    }
    if (!all && !none && names.empty() && explicit_values.empty())
        throw ParseError("invalid --export value '" + std::string(spec) + "'");

    auto overridden = [&](const std::string &name) {
        for (const auto &kv : explicit_values)
            if (kv.first == name) return true;
        return false;
    };
    auto named = [&](const std::string &name) {
        for (const auto &n : names)
            if (n == name) return true;
        return false;
    };
    Env out;
    for (const auto &kv : env) {
        if (overridden(kv.first)) continue;
        // Without ALL only the named variables go, and SLURM_* as Slurm keeps them.
        if (all || named(kv.first) || kv.first.starts_with("SLURM_")) out.push_back(kv);
    }
    for (const auto &kv : explicit_values) out.push_back(kv);
    return out;
}

} // namespace drover::cli
