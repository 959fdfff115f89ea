// fuzz_frame.cpp - arbitrary bytes as a received frame: the header check and the FlatBuffers
// verifier must refuse anything malformed without reading outside the buffer.
#include <cstddef>
#include <cstdint>
#include <span>

#include "proto/frame.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace drover::proto;
    if (size >= kFrameHeaderSize) {
        uint32_t len = 0;
        (void)decode_frame_header(data, &len);
    }
    Verified v;
    std::span<const uint8_t> body(data, size);
    if (verify_frame_body(body, &v).empty()) {
        // A verified message is safe to walk: touch what the daemons read first.
        volatile size_t n = v.cred.size() + v.body.size();
        (void)n;
        (void)EnumNameBody(v.message->body_type());
        if (const auto *f = v.message->body_as_ForwardRequest()) {
            if (f->nodes())
                for (const auto *s : *f->nodes()) (void)s->size();
            if (f->inner_nested_root()) (void)f->inner_nested_root()->body_type();
        }
        if (const auto *j = v.message->body_as_JobSubmitRequest())
            if (j->desc() && j->desc()->environment())
                for (const auto *kv : *j->desc()->environment()) (void)kv->key();
    }
    return 0;
}
