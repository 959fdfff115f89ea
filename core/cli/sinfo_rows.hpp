// sinfo_rows.hpp - sinfo's grouping of nodes into lines and the value of every column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/format_spec.hpp"
#include "cli/node_states.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// Resolves a -o format, checking each letter. Throws drover::ParseError("Invalid node format
// specification: x").
FormatSpec sinfo_percent_format(std::string_view fmt);
// Resolves a -O format to the same letters (default width 20).
FormatSpec sinfo_long_format(std::string_view fmt);

enum class SinfoView { partitions, nodes, reasons };

// Which nodes and partitions sinfo reports.
struct SinfoFilter {
    std::vector<std::string> partitions; // empty = all
    std::vector<std::string> nodes;      // expanded -n list; empty = all
    std::vector<NodeStateMatch> states;  // empty = all (FUTURE nodes hidden unless future)
    bool dead = false, responding = false, future = false;
    bool keep(const proto::NodeInfo &n) const;
};

// One output line: a partition (null in the reasons view, or for a node in no partition) and
// the nodes grouped on it.
struct SinfoRow {
    const proto::PartitionInfo *part = nullptr;
    std::vector<const proto::NodeInfo *> nodes;
    std::string cluster; // %V: whose partition and nodes these are
};

// Groups nodes into lines. partitions view: per partition (in the order given), nodes whose
// shown per-node columns are equal share a line, lines ordered by decreasing state. nodes view:
// one line per node and partition, by node name. reasons view: unavailable nodes grouped by
// reason, user and time.
std::vector<SinfoRow> sinfo_rows(const FormatSpec &spec, SinfoView view,
                                 const std::vector<const proto::PartitionInfo *> &parts,
                                 const std::vector<const proto::NodeInfo *> &nodes,
                                 const SinfoFilter &filter);

// The header (unless noheader) and lines, each ending in '\n'. '#' fields get the width of their
// longest value (at least their header's, 9 for node lists).
std::string sinfo_render(const FormatSpec &spec, const std::vector<SinfoRow> &rows, bool header);

} // namespace drover::cli
