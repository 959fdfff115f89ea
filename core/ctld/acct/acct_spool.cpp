// acct_spool.cpp - job, step and node event accounting records to and from their spooled bytes,
// and the answers to queries.
#include "ctld/acct/acct_spool.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

#include "ctld/acct/acct_codec.hpp"
#include "ctld/acct/acct_records.hpp"

namespace drover::ctld {

namespace {

std::vector<uint8_t> with_event(int event, const flatbuffers::FlatBufferBuilder &fbb) {
    std::vector<uint8_t> out(1 + fbb.GetSize());
    out[0] = uint8_t(event);
    std::memcpy(out.data() + 1, fbb.GetBufferPointer(), fbb.GetSize());
    return out;
}

bool job_event(int event) {
    return event >= DROVER_ACCT_JOB_SUBMIT && event <= DROVER_ACCT_JOB_END;
}
bool step_event(int event) {
    return event == DROVER_ACCT_STEP_START || event == DROVER_ACCT_STEP_END;
}

// The table after the event byte, verified; nullptr when damaged. buf keeps it aligned.
template <class T>
const T *verified(const uint8_t *data, std::size_t len, std::vector<uint8_t> &buf) {
    if (len < 2) return nullptr;
    buf.assign(data + 1, data + len);
    flatbuffers::Verifier v(buf.data(), buf.size());
    if (!v.VerifyBuffer<T>(nullptr)) return nullptr;
    return flatbuffers::GetRoot<T>(buf.data());
}

// The record the bytes after the event byte hold, verified; false when damaged.
template <class Table, class Rec>
bool decode_as(const uint8_t *data, std::size_t len, AcctPayload *out) {
    std::vector<uint8_t> buf;
    const auto *t = verified<Table>(data, len, buf);
    if (!t) return false;
    Rec r;
    t->UnPackTo(&r);
    *out = std::move(r);
    return true;
}

} // namespace

std::vector<uint8_t> encode_acct(int event, const AcctPayload &r) {
    flatbuffers::FlatBufferBuilder fbb(256);
    std::visit(
        [&](const auto &rec) {
            using Table = typename std::decay_t<decltype(rec)>::TableType;
            fbb.Finish(Table::Pack(fbb, &rec));
        },
        r);
    return with_event(event, fbb);
}

bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctPayload *r) {
    if (len < 1) return false;
    const int ev = data[0];
    bool ok = job_event(ev)    ? decode_as<proto::AcctJob, AcctRecord>(data, len, r)
              : step_event(ev) ? decode_as<proto::AcctStep, AcctStepRecord>(data, len, r)
              : ev == kAcctNodeEventCode
                  ? decode_as<proto::AcctNodeEvent, AcctNodeEvent>(data, len, r)
                  : false;
    if (ok) *event = ev;
    return ok;
}

void AcctResponseBuilder::job(const drover_acct_job &in) {
    flush();
    job_ = acct_codec::job_from(in);
    pending_ = true;
}

void AcctResponseBuilder::step(const drover_acct_step &s) {
    if (!pending_ || s.job_id != job_.job_id) return;
    job_.steps.push_back(std::make_unique<proto::AcctStepT>(acct_codec::step_from(s)));
}

void AcctResponseBuilder::flush() {
    if (!pending_) return;
    rows_.push_back(proto::AcctJob::Pack(fbb_, &job_));
    job_ = proto::AcctJobT();
    pending_ = false;
}

void AcctEventResponseBuilder::event(const drover_acct_node_event &ev) {
    const proto::AcctNodeEventT row = acct_codec::node_event_from(ev);
    rows_.push_back(proto::AcctNodeEvent::Pack(fbb_, &row));
}

std::vector<uint8_t> AcctEventResponseBuilder::finish() {
    auto v = fbb_.CreateVector(rows_);
    fbb_.Finish(proto::CreateMessage(fbb_, proto::Body::AcctEventQueryResponse,
                                     proto::CreateAcctEventQueryResponse(fbb_, v).Union()));
    return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
}

std::vector<uint8_t> AcctResponseBuilder::finish() {
    flush();
    auto v = fbb_.CreateVector(rows_);
    fbb_.Finish(proto::CreateMessage(fbb_, proto::Body::AcctQueryResponse,
                                     proto::CreateAcctQueryResponse(fbb_, v).Union()));
    return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
}

} // namespace drover::ctld
