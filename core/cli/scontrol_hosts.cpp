// scontrol_hosts.cpp - scontrol show hostnames, hostlist and hostlistsorted.
#include "cli/scontrol_hosts.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scontrol";
constexpr std::size_t kMaxFile = 1024 * 1024; // a file of names this big is not one

// The whole of path ("-": standard input), or nullopt once the error is written.
std::optional<std::string> read_names(const std::string &arg) {
    std::string path = arg == "-" ? "/dev/stdin" : arg;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        write_err("Can not open " + path + "\n");
        return std::nullopt;
    }
    std::string text;
    char buf[65536];
    ssize_t n = 0;
    while (text.size() <= kMaxFile && (n = ::read(fd, buf, sizeof buf)) > 0)
        text.append(buf, std::size_t(n));
    ::close(fd);
    if (n < 0) {
        write_err("Error reading " + path + "\n");
        return std::nullopt;
    }
    if (text.size() > kMaxFile) {
        write_err("File " + path + " is too large\n");
        return std::nullopt;
    }
    return text;
}

// A file's lines as one list: line ends become commas, and no name is empty.
std::string as_list(const std::string &text) {
    std::string out;
    std::string name;
    auto flush = [&] {
        if (name.empty()) return;
        if (!out.empty()) out.push_back(',');
        out += name;
        name.clear();
    };
    for (char c : text) {
        if (c == '\n' || c == ',' || c == '\r')
            flush();
        else
            name.push_back(c);
    }
    flush();
    return out;
}

} // namespace

int show_hostnames(std::span<const std::string> rest) {
    const char *env = std::getenv("SLURM_NODELIST");
    if (rest.empty() && !env) {
        print_error(kProg, "host list is empty");
        return 0;
    }
    std::string expr = rest.empty() ? env : rest[0];
    try {
        std::string out;
        for (const std::string &name : hostlist_expand(expr)) out += name + "\n";
        write_out(out);
    } catch (const ParseError &) {
        write_err("Invalid hostlist: " + expr + "\n");
    }
    return 0;
}

int show_hostlist(std::span<const std::string> rest, bool sorted) {
    if (rest.empty()) {
        write_err("invalid encode argument\n");
        return 1;
    }
    std::string list = rest[0];
    if (list == "-" || list.starts_with('/')) {
        auto text = read_names(list);
        if (!text) return 1;
        list = as_list(*text);
    }
    try {
        write_out(hostlist_ranged(hostlist_expand(list), sorted) + "\n");
    } catch (const ParseError &) {
        write_err("Invalid hostlist: " + list + "\n");
        return 1;
    }
    return 0;
}

} // namespace drover::cli
