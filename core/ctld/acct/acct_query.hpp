// acct_query.hpp - sacct's filters on their way to the accounting store: read from the request,
// passed as drover_acct_query's ABI 1.5 and 1.7 members, and checked again on what a store that
// does not know them all emits.
#pragma once

#include <drover/accounting.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ctld/acct/acct_spool.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

// sacct's filters (empty: no filter).
struct AcctFilters {
    std::vector<uint32_t> user_ids, states; // states: base states
    std::vector<std::string> accounts, partitions, names;
    std::vector<std::string> clusters, nodes; // -M (empty: every cluster), -N (names)
};

// The filters an AcctQueryRequest carries; own_cluster (ClusterName) when it names no cluster
// and does not ask for all.
AcctFilters acct_filters_from(const proto::AcctQueryRequest &a, const std::string &own_cluster);

// Sets f as q's ABI 1.5 and 1.7 members; q then points into f and into this object, which must
// outlive its use.
class AcctFilterArgs {
  public:
    AcctFilterArgs(const AcctFilters &f, drover_acct_query &q);

  private:
    std::vector<drover_str> accounts_, partitions_, names_, clusters_, nodes_;
};

// drover_acct_query's node_list_match: whether the hostlist expression node_list names any of
// q's nodes.
int acct_node_list_match(const drover_acct_query *q, drover_str node_list) noexcept;

// A query's answer built from what the store emits, less the jobs (and their steps) that q's
// filters refuse when the store does not apply them all itself (built before ABI 1.7, which does
// not see the cluster and node filters, or 1.5, which sees none).
class AcctFilteredRows {
  public:
    AcctFilteredRows(const drover_acct_query &q, uint16_t store_abi_minor)
        : q_(q), store_filters_(store_abi_minor >= 7) {}
    void job(const drover_acct_job &j);
    void step(const drover_acct_step &s);
    // The finished Message (Body::AcctQueryResponse).
    std::vector<uint8_t> finish() { return rows_.finish(); }

  private:
    const drover_acct_query &q_;
    const bool store_filters_;
    AcctResponseBuilder rows_;
    bool skipping_ = false; // the last job was refused: so are its steps
};

} // namespace drover::ctld
