// fuzz_frame.cpp - arbitrary bytes as a received frame, read the way a daemon reads one before and
// after its sender is authenticated: the header check, the preamble parse (receiver, digest,
// credential), the seal the credential would be checked against, then the FlatBuffers verifier on
// the body. Each must refuse anything malformed without reading outside its buffer.
#include <cstddef>
#include <cstdint>
#include <span>

#include "proto/frame.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace drover::proto;
    std::span<const uint8_t> in(data, size);
    FrameHeader h;
    if (size < kFrameHeaderSize || !decode_frame_header(data, &h).empty()) {
        // Not a frame: the body verifier alone must still hold on any bytes.
        const Message *m = nullptr;
        (void)verify_message(in, Body::JobSubmitRequest, &m);
        return 0;
    }
    in = in.subspan(kFrameHeaderSize);
    if (in.size() < h.preamble_len) return 0;
    Preamble p;
    if (!decode_preamble(in.first(h.preamble_len), &p).empty()) return 0;
    volatile std::size_t n = seal_input(h.type, h.body_len, p.to, p.digest).size() + p.cred.size();
    (void)n;
    in = in.subspan(h.preamble_len);
    const Message *m = nullptr;
    if (!verify_message(in.first(std::min<std::size_t>(in.size(), h.body_len)), h.type, &m).empty())
        return 0;
    // A verified message is safe to walk: touch what the daemons read first.
    (void)EnumNameBody(m->body_type());
    if (const auto *f = m->body_as_ForwardRequest()) {
        if (f->nodes())
            for (const auto *s : *f->nodes()) (void)s->size();
        if (f->inner_nested_root()) (void)f->inner_nested_root()->body_type();
    }
    if (const auto *j = m->body_as_JobSubmitRequest())
        if (j->desc() && j->desc()->environment())
            for (const auto *kv : *j->desc()->environment()) (void)kv->key();
    return 0;
}
