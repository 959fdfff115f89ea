// acct_spool.hpp - accounting records as FlatBuffers tables: the spool's bytes (acct_records.hpp
// declares encode_acct/decode_acct) and the rows of a query's answer.
#pragma once

#include <drover/accounting.h>

#include <cstdint>
#include <vector>

#include "proto/message_generated.h"

namespace drover::ctld {

// Builds an AcctQueryResponse message from a store's stream: each job, then that job's steps.
class AcctResponseBuilder {
  public:
    AcctResponseBuilder() : fbb_(1 << 16) {}
    void job(const drover_acct_job &j);
    // A step of the job passed last; a step of any other job is dropped.
    void step(const drover_acct_step &s);
    // The finished Message (Body::AcctQueryResponse).
    std::vector<uint8_t> finish();

  private:
    void flush();

    flatbuffers::FlatBufferBuilder fbb_;
    std::vector<flatbuffers::Offset<proto::AcctJob>> rows_;
    bool pending_ = false; // job_ waits for its steps
    proto::AcctJobT job_;
};

// Builds an AcctEventQueryResponse message from a store's stream of node events.
class AcctEventResponseBuilder {
  public:
    AcctEventResponseBuilder() : fbb_(1 << 12) {}
    void event(const drover_acct_node_event &ev);
    // The finished Message (Body::AcctEventQueryResponse).
    std::vector<uint8_t> finish();

  private:
    flatbuffers::FlatBufferBuilder fbb_;
    std::vector<flatbuffers::Offset<proto::AcctNodeEvent>> rows_;
};

} // namespace drover::ctld
