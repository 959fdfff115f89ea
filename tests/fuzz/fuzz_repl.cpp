// fuzz_repl.cpp - what a standby applies from the controller in control: arbitrary bytes as a
// received ReplPullResponse (verified first, as the network layer does), and the same bytes read
// as a list of changes and sent as a transaction or a table copy. Whatever arrives, the replica
// either applies it or refuses it with an error; it never crashes or half-applies a batch.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <unistd.h>

#include "ctld/store/repl_codec.hpp"
#include "ctld/store/repl_replica.hpp"

namespace {

drover::state::Store &store() {
    static std::unique_ptr<drover::state::Store> s = [] {
        auto dir = std::filesystem::temp_directory_path() /
                   ("drover-fuzz-repl-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::atexit([] {
            std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                        ("drover-fuzz-repl-" + std::to_string(::getpid())));
        });
        return std::make_unique<drover::state::Store>(dir.string(), false);
    }();
    return *s;
}

// Reads changes as [table][kind][key length][key][value length][value]...
std::vector<drover::state::Change> changes_of(const uint8_t *d, size_t n) {
    std::vector<drover::state::Change> out;
    size_t i = 0;
    while (i + 3 <= n) {
        drover::state::Change c{drover::state::Table(d[i] % (drover::state::kTableCount + 1)),
                                drover::state::Change::Kind(d[i + 1] % 4),
                                {},
                                {}};
        size_t kl = std::min<size_t>(d[i + 2], n - i - 3);
        c.key.assign(d + i + 3, d + i + 3 + kl);
        i += 3 + kl;
        if (i < n) {
            size_t vl = std::min<size_t>(d[i], n - i - 1);
            c.value.assign(d + i + 1, d + i + 1 + vl);
            i += 1 + vl;
        }
        out.push_back(std::move(c));
    }
    return out;
}

void apply(drover::ctld::ReplReplica &r, const uint8_t *buf) {
    try {
        r.apply(*flatbuffers::GetRoot<drover::proto::ReplPullResponse>(buf));
    } catch (const std::runtime_error &) {
        r.abandon_copy(); // refused: what the standby does before it asks again
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace drover;
    ctld::ReplReplica replica(store());
    flatbuffers::Verifier v(data, size);
    if (v.VerifyBuffer<proto::ReplPullResponse>(nullptr)) apply(replica, data);

    if (size < 2) return 0;
    flatbuffers::FlatBufferBuilder fbb;
    auto changes = changes_of(data + 2, size - 2);
    auto enc = ctld::encode_changes(fbb, changes);
    std::vector<flatbuffers::Offset<proto::ReplBatch>> bs{
        proto::CreateReplBatch(fbb, replica.seq() + data[1] % 3, data[1], enc)};
    auto batches = fbb.CreateVector(bs);
    proto::ReplPullResponseBuilder b(fbb);
    if (data[0] & 1) { // a one-page table copy
        b.add_snapshot(true);
        b.add_snap_seq(replica.seq() + 1 + data[1] % 3);
        b.add_snap_epoch(data[1]);
        b.add_page(enc);
        b.add_last_page(data[0] & 2);
    } else { // a transaction, maybe out of order
        b.add_batches(batches);
    }
    b.add_head_seq(replica.seq() + 1);
    fbb.Finish(b.Finish());
    apply(replica, fbb.GetBufferPointer());
    return 0;
}
