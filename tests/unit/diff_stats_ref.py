#!/usr/bin/env python3
"""Reference values for tests/unit/test_diff_stats.c, computed without scipy: U from mid-ranks;
the exact two-sided p-value by counting the arrangements of the two samples (no ties, na x nb <=
2500), else the normal approximation with tie-corrected variance and continuity correction."""
import math, itertools
from functools import lru_cache
def ranks(a,b):
    allv=sorted([(v,0) for v in a]+[(v,1) for v in b])
    n=len(allv); rb=0; ties=0; i=0
    while i<n:
        j=i
        while j<n and allv[j][0]==allv[i][0]: j+=1
        mr=(i+1+j)/2; t=j-i
        rb+=sum(mr for k in range(i,j) if allv[k][1]==1); ties+=t**3-t; i=j
    return rb,ties
@lru_cache(None)
def cnt(m,n,u):
    # number of arrangements of m a's and n b's with U (count of pairs b>a) == u
    if u<0: return 0
    if m==0 or n==0: return 1 if u==0 else 0
    # last element is the largest: if it's a b, it beats all m a's
    return cnt(m,n-1,u-m)+cnt(m-1,n,u)
def mw(a,b):
    na,nb=len(a),len(b); rb,ties=ranks(a,b); u=rb-nb*(nb+1)/2
    mu=na*nb/2
    if ties==0 and na*nb<=2500:
        us=min(u,na*nb-u)
        tot=math.comb(na+nb,na)
        below=sum(cnt(na,nb,k) for k in range(0,int(us)+1))
        return u, min(1,2*below/tot), True
    n=na+nb
    var=na*nb/12*((n+1)-ties/(n*(n-1)))
    z=max(0,abs(u-mu)-0.5)/math.sqrt(var)
    return u, min(1,math.erfc(z/math.sqrt(2))), False
cases={
 'sep3':([1,2,3],[4,5,6]),
 'sep4':([1,2,3,4],[5,6,7,8]),
 'inter5':([1,3,5,7,9],[2,4,6,8,10]),
 'ties':([1,2,2,3,3,3],[2,3,3,4,4,5]),
 'big':([2*i for i in range(60)],[2*i+3 for i in range(60)]),
 'med20':([3*i for i in range(20)],[3*i+4 for i in range(20)]),
 'unequal':([10,20,30,40,50,60,70],[35,45,55]),
}
for k,(a,b) in cases.items():
    print(k, '%.1f %.12g %s'%mw(a,b))
