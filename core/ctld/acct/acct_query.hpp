// acct_query.hpp - sacct's filters on their way to the accounting store: read from the request,
// passed as drover_acct_query's ABI 1.5 members, and checked again on what the store emits.
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
};

// The filters an AcctQueryRequest carries.
AcctFilters acct_filters_from(const proto::AcctQueryRequest &a);

// Sets f as q's ABI 1.5 members; q then points into f and into this object, which must outlive
// its use.
class AcctFilterArgs {
  public:
    AcctFilterArgs(const AcctFilters &f, drover_acct_query &q);

  private:
    std::vector<drover_str> accounts_, partitions_, names_;
};

// A query's answer built from what the store emits, less the jobs (and their steps) that q's
// filters refuse when the store does not apply them itself (built before ABI 1.5, which does not
// see the filters).
class AcctFilteredRows {
  public:
    AcctFilteredRows(const drover_acct_query &q, uint16_t store_abi_minor)
        : q_(q), store_filters_(store_abi_minor >= 5) {}
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
