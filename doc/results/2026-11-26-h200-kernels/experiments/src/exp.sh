#!/bin/bash
# One device run: build both experiments, validate + time, SASS counts, ncu on heat.
export PATH=/usr/local/cuda/bin:$PATH
D=.device/kernels
set -x
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv; nvcc --version | tail -1; } > $OUT/info.txt 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/nb $D/nbody_exp.cu &
nvcc -O3 -arch=sm_90 -lineinfo -DAPOD_REAL_FLOAT=1 -I shared -I gpu/heat -I gpu -o /tmp/he $D/heat_exp.cu &
wait
/tmp/he > $OUT/heat.txt 2>&1
/tmp/nb > $OUT/nbody.txt 2>&1
cuobjdump -sass /tmp/nb > /tmp/nb.sass
awk '/Function :/ {if (f) {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}; f=$3; delete c; t=0; next}
     /^ +\/\*[0-9a-f]+\*\/ / {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); sub(/;/, "", op); t++; if (op ~ /^(FFMA|FMUL|FADD|MUFU|LDS|LDG|BAR|BRA|IADD3|ISETP|FSEL|MOV|STS|IMAD|LEA)$/) c[op]++}
     END {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}' /tmp/nb.sass > $OUT/sass-nbody.txt
cuobjdump -sass /tmp/he > /tmp/he.sass
awk '/Function :/ {if (f) {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}; f=$3; delete c; t=0; next}
     /^ +\/\*[0-9a-f]+\*\/ / {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); sub(/;/, "", op); t++; c[op]++}
     END {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}' /tmp/he.sass > $OUT/sass-heat.txt
grep -A400 'Function : _Z17fused_vec4_kernelILb1ELb1E' /tmp/he.sass | head -400 > $OUT/sass-heat-v0.txt
timeout 200 ncu --set full -k regex:'fused_vec4_kernel|v1_fused' -c 10 /tmp/he --once > /tmp/ncu.txt 2>&1
grep -E 'fused|Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Executed Ipc A|No Eligible|Local Memory|Waves Per SM|L2 Hit|Memory Throughput|SM Frequency|Warp Cycles Per Issued|Stall|One or More|Block Limit' /tmp/ncu.txt > $OUT/ncu-heat-summary.txt
gzip -c /tmp/ncu.txt > $OUT/ncu-heat-full.txt.gz
