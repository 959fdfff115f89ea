// pmi_wire.hpp - the PMI-1 and PMI-2 wire formats: a task's requests read, the server's replies
// written. Only bytes here: the server that answers (pmi_server.hpp) and the channel that carries
// them (droverd's step) are elsewhere.
//
// PMI-1: one request per line, space-separated key=value tokens, the first one cmd=NAME (or
// mcmd=spawn, whose request spans lines up to "endcmd"). PMI-2: a 6-character space-padded
// decimal length, then that many bytes of "cmd=NAME;key=value;...;" where a ';' inside a value
// is written twice. A PMI-2 client still opens with the PMI-1 "cmd=init" line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover::pmi {

// The limits the server announces (get_maxes) and enforces.
inline constexpr std::size_t kKvsNameMax = 256;
inline constexpr std::size_t kKeyMax = 64;
inline constexpr std::size_t kValueMax = 1024;
// The longest request read before the channel is refused: a whole spawn, or a key and value
// with their names.
inline constexpr std::size_t kRequestMax = 16384;

struct Command {
    std::string name; // cmd= (or mcmd=)
    std::vector<std::pair<std::string, std::string>> attrs;

    // The first value of key, if present.
    std::optional<std::string> get(std::string_view key) const;
};

// The outcome of reading one request from the front of a buffer.
struct Read {
    enum Kind { incomplete, request, malformed } kind = incomplete;
    std::size_t used = 0; // bytes the request took (request and malformed)
    Command cmd;          // request
    std::string why;      // malformed
};

// One PMI-1 request (a line, or an mcmd=spawn block) from the front of in.
Read read_v1(std::string_view in);
// One PMI-2 request (length-prefixed) from the front of in.
Read read_v2(std::string_view in);

// A reply in each wire format, from its name and attributes.
std::string write_v1(std::string_view name,
                     const std::vector<std::pair<std::string, std::string>> &attrs);
std::string write_v2(std::string_view name,
                     const std::vector<std::pair<std::string, std::string>> &attrs);

} // namespace drover::pmi
