// hostlist.hpp - Slurm hostlist expressions: "lx[0001-0002,7]", "rack[1-2]-n[01-16]", "a,b[1-3]".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

// Most names one expression may expand to; larger expressions are refused, not expanded.
inline constexpr std::size_t kHostlistMax = 1u << 20;

// Expands an expression into names, in order, keeping zero padding ("n[08-10]" -> n08 n09 n10).
// Several bracket groups multiply out, leftmost varying slowest. Throws ParseError naming the
// position for unbalanced brackets, bad ranges (hi < lo), empty names or too many names.
std::vector<std::string> hostlist_expand(std::string_view expr);

// Compresses names into the shortest usual expression, keeping order of first appearance of
// each prefix: {n1,n2,n3,m5} -> "n[1-3],m5"; names with different padding widths stay apart.
std::string hostlist_compress(const std::vector<std::string> &names);

}  // namespace drover
