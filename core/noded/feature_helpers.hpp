// feature_helpers.hpp - NodeFeaturesPlugins=node_features/helpers on the node: each Helper of
// helpers.conf that applies to this node (its NodeName list names it, or it has none), run with
// no argument, prints the features active here, one a line. droverd runs them once at start (what
// the node booted with) and registers what they report; the controller checks it against the
// changeable features it made active.
#pragma once

#include <optional>
#include <string>

namespace drover {
struct Config;
}

namespace drover::noded {

// The features this node's helpers report active ("f1,mig=on"), only those their lines name;
// nullopt when no helper applies or none reported any (as with Helper=/bin/true: the controller
// keeps the active features). A helper that fails, or runs past ExecTime, is logged and killed.
std::optional<std::string> helper_features(const Config &conf, const std::string &node);

} // namespace drover::noded
