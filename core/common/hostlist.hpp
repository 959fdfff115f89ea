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
// A number written without leading zeros takes the width of its bracket's first low bound when
// that one has them ("lx[0001-0002,7]" -> lx0001 lx0002 lx0007). Names are separated by commas
// or whitespace outside brackets; "" expands to no names. Several bracket groups multiply out,
// leftmost varying slowest. Throws ParseError naming the position for unbalanced or nested
// brackets, bad ranges (hi < lo, not digits), empty names or too many names (counted before
// anything is allocated).
std::vector<std::string> hostlist_expand(std::string_view expr);
// The same, refusing (before allocating) expressions of more than max_names names
// (min(max_names, kHostlistMax) applies).
std::vector<std::string> hostlist_expand(std::string_view expr, std::size_t max_names);

// Compresses names into the shortest usual expression, keeping order of first appearance of
// each prefix: {n1,n2,n3,m5} -> "n[1-3],m5"; names with different padding widths stay apart.
// Numbers are sorted within a prefix; duplicates are kept ({n1,n1} -> "n[1,1]"). Names without a
// numeric suffix stay as they are. hostlist_expand of the result gives the same names back.
std::string hostlist_compress(const std::vector<std::string> &names);

// Compresses names in the order given, as Slurm writes a hostlist: a name joins the bracket of
// the name before it when they share a prefix and padding, and numbers that ascend by one in a
// row make a range ({tux2,tux1,tux2} -> "tux[2,1-2]"; {a1,b1,a2} -> "a1,b1,a2"). sorted: the
// names sorted by prefix and number first ("tux[1-2,2]"; scontrol show hostlistsorted).
std::string hostlist_ranged(const std::vector<std::string> &names, bool sorted);

// Per-node counts as Slurm writes them in SLURM_TASKS_PER_NODE and SLURM_JOB_CPUS_PER_NODE:
// runs of equal values as "N(xK)": {2,2,2,1} -> "2(x3),1".
std::string compress_counts(const std::vector<uint32_t> &counts);

} // namespace drover
