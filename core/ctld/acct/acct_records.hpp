// acct_records.hpp - what the controller records in the accounting store, owning its strings: a
// job's record, a step's, and a node event (a node down or drained, sacctmgr show event); and
// their bytes in the controller's spool (acct_spool.cpp), where each waits until the store has it.
#pragma once

#include <drover/accounting.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "proto/acct_generated.h"

namespace drover::ctld {

// The state of a requeued job's earlier run in the store: Slurm's JOB_REQUEUE bit, which sacct
// prints as REQUEUED.
inline constexpr uint32_t kAcctStateRequeued = 0x400;
// A federated job's copy that did not run here (Slurm's JOB_REVOKED bit): sacct shows it only
// with -D, so that each job of a federation shows once.
inline constexpr uint32_t kAcctStateRevoked = 0x00080000;

// The records, as the FlatBuffers object API's types of acct.fbs (acct_codec.hpp copies them to
// and from the plugin ABI's structs): a job's record, a step's (sizes in bytes, times in
// microseconds; the "max" figures name the node and task that had them), and a node event. Their
// cluster is left empty: the accounting thread adds this controller's ClusterName.
using AcctRecord = proto::AcctJobT;
using AcctStepRecord = proto::AcctStepT;
using AcctNodeEvent = proto::AcctNodeEventT;

// Any record, as the spool and the accounting thread carry them, in the order they were made.
using AcctPayload = std::variant<AcctRecord, AcctStepRecord, AcctNodeEvent>;

// The event byte a node event is spooled under (the ABI's node_event takes no event code; job
// and step records are spooled under their DROVER_ACCT_* event).
inline constexpr int kAcctNodeEventCode = 0x40;

// A spooled record's bytes: the event byte, then the record as a FlatBuffer (AcctJob, AcctStep or
// AcctNodeEvent, by the event). decode_acct returns false for damaged bytes or an event that does
// not fit the record.
std::vector<uint8_t> encode_acct(int event, const AcctPayload &r);
bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctPayload *r);

} // namespace drover::ctld
