#!/bin/bash
export PATH=/usr/local/cuda/bin:$PATH
D=.device/kernels
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; } > $OUT/info.txt 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/nb $D/nbody_exp.cu 2>/dev/null &
nvcc -O3 -arch=sm_90 -lineinfo -DAPOD_REAL_FLOAT=1 -I shared -I gpu/heat -I gpu -o /tmp/he $D/heat_exp.cu &
wait
/tmp/he > $OUT/heat.txt 2>&1
/tmp/nb > $OUT/nbody.txt 2>&1
timeout 150 ncu --set full --kernel-name-base mangled -k regex:'v1_splitILi4ELi8ELi256ELi32ELi3|v2_dbILi4ELi4ELi256ELi32ELi3ELi1024' -c 2 /tmp/nb --once > /tmp/ncu-nb.txt 2>&1
timeout 100 ncu --set full -k regex:'v2_fused' -c 3 /tmp/he --once > /tmp/ncu-he.txt 2>&1
for f in nb he; do grep -E 'v1_split|v2_db|v2_fused|Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Waves Per SM|SM Frequency|Warp Cycles Per Issued|Executed Ipc|Pipe|stall|Stall|Local' /tmp/ncu-$f.txt > $OUT/ncu-$f-summary.txt; done
gzip -c /tmp/ncu-nb.txt > $OUT/ncu-nb-full.txt.gz
cuobjdump -sass /tmp/nb | awk '/Function :/ {if (f) {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}; f=$3; delete c; t=0; next}
     /^ +\/\*[0-9a-f]+\*\/ / {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); sub(/;/, "", op); t++; if (op ~ /^(FFMA|FMUL|FADD|MUFU|LDS|BAR|BRA)$/) c[op]++}
     END {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}' > $OUT/sass-nbody.txt
