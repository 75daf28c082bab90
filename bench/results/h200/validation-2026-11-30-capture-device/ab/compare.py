# A/B of two benchmark builds: per row (op, n, impl) the median over passes
# of each pass's median time; then new - old per implementation.
import csv, glob, statistics as st, sys, collections
d = sys.argv[1]
rows = {'old': collections.defaultdict(list), 'new': collections.defaultdict(list)}
for f in sorted(glob.glob(d + '/*.csv')):
    side = f.split('/')[-1].split('_')[0]
    for r in csv.DictReader(open(f)):
        rows[side][(r['op'], int(r['n']), r['impl'])].append(float(r['median_us']))
impls = sorted({k[2] for k in rows['old']})
print('passes: old', len(glob.glob(d + '/old_*.csv')), 'new', len(glob.glob(d + '/new_*.csv')))
print('%-16s %8s %8s %8s   (new - old of per-row medians, us; all ops, n = 2^10..2^20)' % ('impl', 'median', 'p10', 'p90'))
for impl in impls:
    diffs = sorted(st.median(rows['new'][k]) - st.median(rows['old'][k]) for k in rows['old'] if k[2] == impl and k in rows['new'])
    q = lambda p: diffs[min(len(diffs) - 1, int(p * len(diffs)))]
    print('%-16s %+8.3f %+8.3f %+8.3f  (%d rows)' % (impl, st.median(diffs), q(0.1), q(0.9), len(diffs)))
print()
print('u32 inclusive sum, median over passes, us: old / new')
ns = sorted({k[1] for k in rows['old'] if k[0] == 'u32_incl_sum'})
show = ['warp-lookback', 'coarsened', 'pipelined', 'fallback', 'default', 'copy', 'cub']
show = [s for s in show if any(k[2] == s for k in rows['old'])]
print('| n | ' + ' | '.join(show) + ' |')
print('|---' * (len(show) + 1) + '|')
for n in ns:
    cells = []
    for s in show:
        k = ('u32_incl_sum', n, s)
        cells.append('%.2f / %.2f' % (st.median(rows['old'][k]), st.median(rows['new'][k])) if k in rows['old'] and k in rows['new'] else '-')
    print('| %d | %s |' % (n, ' | '.join(cells)))
