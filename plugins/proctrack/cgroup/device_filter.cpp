// device_filter.cpp - devices.deny lines and the cgroup v2 device filter, built by hand from raw
// struct bpf_insn (no compiler, no libbpf).
#include "device_filter.hpp"

#include <cstddef>

namespace drover::cgroup {

namespace {

// The registers the program uses: r1 holds the context on entry, r0 the answer on exit.
constexpr uint8_t kAnswer = 0, kCtx = 1, kType = 2, kMajor = 3, kMinor = 4;

bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm) {
    bpf_insn i{};
    i.code = code;
    i.dst_reg = dst & 0xf;
    i.src_reg = src & 0xf;
    i.off = off;
    i.imm = imm;
    return i;
}

// dst = *(u32 *)(ctx + off)
bpf_insn load_u32(uint8_t dst, size_t off) {
    return insn(BPF_LDX | BPF_MEM | BPF_W, dst, kCtx, static_cast<int16_t>(off), 0);
}

// if (reg != value) skip the next `skip` instructions. The values are below 2^31 (a major has 12
// bits, a minor 20), so the 64-bit compare with the sign-extended immediate is exact.
bpf_insn skip_unless(uint8_t reg, uint32_t value, int16_t skip) {
    return insn(BPF_JMP | BPF_JNE | BPF_K, reg, 0, skip, static_cast<int32_t>(value));
}

bpf_insn answer(int32_t value) {
    return insn(BPF_ALU64 | BPF_MOV | BPF_K, kAnswer, 0, 0, value);
}

bpf_insn exit_insn() {
    return insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

} // namespace

std::string deny_line(const Device &d) {
    return std::string(1, d.type) + " " + std::to_string(d.major) + ":" + std::to_string(d.minor) +
           " rwm";
}

std::vector<bpf_insn> device_filter(const std::vector<Device> &denied) {
    std::vector<bpf_insn> p;
    p.reserve(kFilterPrologueInsns + denied.size() * kFilterInsnsPerDevice + kFilterEpilogueInsns);
    // struct bpf_cgroup_dev_ctx: access_type holds the device type in its low 16 bits and the
    // access (read, write, mknod) in its high 16.
    p.push_back(load_u32(kType, offsetof(bpf_cgroup_dev_ctx, access_type)));
    p.push_back(insn(BPF_ALU | BPF_AND | BPF_K, kType, 0, 0, 0xffff));
    p.push_back(load_u32(kMajor, offsetof(bpf_cgroup_dev_ctx, major)));
    p.push_back(load_u32(kMinor, offsetof(bpf_cgroup_dev_ctx, minor)));
    for (const Device &d : denied) {
        const uint32_t type = d.type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR;
        // Each compare skips to the next device: past the rest of this one's five.
        p.push_back(skip_unless(kType, type, 4));
        p.push_back(skip_unless(kMajor, d.major, 3));
        p.push_back(skip_unless(kMinor, d.minor, 2));
        p.push_back(answer(0));
        p.push_back(exit_insn());
    }
    p.push_back(answer(1));
    p.push_back(exit_insn());
    return p;
}

} // namespace drover::cgroup
