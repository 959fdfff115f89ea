// select.hpp - job_test's decision: which nodes, or why none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "node_res.hpp"
#include "options.hpp"
#include "request.hpp"

namespace cons_tres {

// Chooses nodes for req among usable (ascending node indexes), reading every node as empty when
// ignore is set. Returns true and sets nodes, or returns false.
bool select_nodes(const std::vector<NodeRes> &table, const Options &opt, const Request &req,
                  const std::vector<uint32_t> &usable, bool ignore, std::vector<uint32_t> &nodes);

// Why req can never run on usable (one line), for a job select_nodes refused with ignore set.
std::string explain_refusal(const std::vector<NodeRes> &table, const Options &opt,
                            const Request &req, const std::vector<uint32_t> &usable);

// The first feature req's constraint names that no node in table has, or "".
std::string unknown_feature(const std::vector<NodeRes> &table, const Request &req);

} // namespace cons_tres
