// features.hpp - -C/--constraint against node features, as far as each node can answer alone:
// names joined by '&' or ',' (all) and '|' (any), '&' binding tighter. Counts ("a*2") and bracketed
// sets ("[a|b]") need the whole allocation and are left to the select plugin.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace drover::ctld {

// True when every node can be judged alone (no '*', '[' or '(').
bool per_node_constraint(std::string_view constraint);

// Does a node with these features (comma-separated, as slurm.conf Feature=) satisfy it?
bool node_satisfies(std::string_view constraint, std::string_view features);

// The feature names a constraint mentions.
std::vector<std::string> constraint_names(std::string_view constraint);

} // namespace drover::ctld
