// control_files.cpp - cgroup control file I/O and the formats of the files proctrack/cgroup reads.
#include "control_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

namespace drover::cgroup {

namespace {

// Calls fn(line) for each line of text (without its '\n').
template <class Fn>
void each_line(std::string_view text, Fn &&fn) {
    while (!text.empty()) {
        size_t nl = text.find('\n');
        fn(text.substr(0, nl));
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

// Splits a line on spaces and tabs.
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::optional<uint64_t> number(std::string_view s) {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end == s.data()) return std::nullopt;
    return v;
}

} // namespace

std::optional<std::string> read_file(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    while (true) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            ::close(fd);
            errno = e;
            return std::nullopt;
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

int write_file(const std::string &path, std::string_view value) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t n;
    do {
        n = ::write(fd, value.data(), value.size());
    } while (n < 0 && errno == EINTR);
    int e = n < 0 ? errno : 0;
    ::close(fd);
    return e;
}

bool exists(const std::string &path) {
    return ::access(path.c_str(), F_OK) == 0;
}

uint64_t read_count(const std::string &path) {
    auto text = read_file(path);
    return text ? parse_count(*text).value_or(0) : 0;
}

uint64_t read_keyed(const std::string &path, std::string_view key) {
    auto text = read_file(path);
    return text ? keyed_value(*text, key).value_or(0) : 0;
}

std::optional<uint64_t> parse_count(std::string_view text) {
    auto w = words(text.substr(0, text.find('\n')));
    return w.empty() ? std::nullopt : number(w[0]);
}

std::optional<uint64_t> keyed_value(std::string_view text, std::string_view key) {
    std::optional<uint64_t> found;
    each_line(text, [&](std::string_view line) {
        auto w = words(line);
        if (!found && w.size() >= 2 && w[0] == key) found = number(w[1]);
    });
    return found;
}

std::vector<int32_t> parse_pids(std::string_view text) {
    std::vector<int32_t> out;
    each_line(text, [&](std::string_view line) {
        auto v = parse_count(line);
        if (v && *v > 0 && *v <= INT32_MAX) out.push_back(static_cast<int32_t>(*v));
    });
    return out;
}

IoBytes parse_blkio_bytes(std::string_view text) {
    IoBytes io;
    each_line(text, [&](std::string_view line) {
        auto w = words(line);
        if (w.size() != 3 || w[0].find(':') == std::string_view::npos)
            return; // "Total N" and anything unexpected
        auto v = number(w[2]);
        if (!v) return;
        if (w[1] == "Read")
            io.read += *v;
        else if (w[1] == "Write")
            io.write += *v;
    });
    return io;
}

IoBytes parse_io_stat(std::string_view text) {
    IoBytes io;
    each_line(text, [&](std::string_view line) {
        auto w = words(line);
        for (size_t i = 1; i < w.size(); ++i) {
            size_t eq = w[i].find('=');
            if (eq == std::string_view::npos) continue;
            auto v = number(w[i].substr(eq + 1));
            if (!v) continue;
            if (w[i].substr(0, eq) == "rbytes")
                io.read += *v;
            else if (w[i].substr(0, eq) == "wbytes")
                io.write += *v;
        }
    });
    return io;
}

bool lists_word(std::string_view text, std::string_view controller) {
    for (auto w : words(text.substr(0, text.find('\n'))))
        if (w == controller) return true;
    return false;
}

Mounts parse_mounts(std::string_view text, const std::string &mountpoint) {
    Mounts m;
    const std::string prefix = mountpoint + "/";
    each_line(text, [&](std::string_view line) {
        auto w = words(line);
        if (w.size() < 4) return;
        const std::string dir(w[1]);
        if (w[2] == "cgroup2") {
            if (dir == mountpoint) m.v2 = true;
            return;
        }
        if (w[2] != "cgroup" || dir.compare(0, prefix.size(), prefix) != 0 ||
            dir.find('/', prefix.size()) != std::string::npos)
            return;
        const std::string base = dir.substr(prefix.size());
        std::string_view opts = w[3];
        while (!opts.empty()) {
            size_t comma = opts.find(',');
            std::string opt(opts.substr(0, comma));
            opts = comma == std::string_view::npos ? std::string_view() : opts.substr(comma + 1);
            if (opt.find('=') != std::string::npos) continue; // name=systemd and the like
            auto it = m.v1.find(opt);
            // A directory named after the controller wins over a co-mount found first.
            if (it == m.v1.end())
                m.v1.emplace(opt, dir);
            else if (base == opt)
                it->second = dir;
        }
    });
    return m;
}

} // namespace drover::cgroup
