/* Growable arrays of plain structs: one allocation per doubling, never one per element. */
#ifndef GS_COMMON_VEC_H
#define GS_COMMON_VEC_H

#include <stddef.h>
#include <string.h>

#define GS_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *v;                                                                                      \
        size_t n, cap;                                                                             \
    }

/* Grows *data so that it holds at least `need` elements of `elsize` bytes. 0 on success. */
int gs_grow(void **data, size_t *cap, size_t need, size_t elsize);

/* malloc and calloc for an array of `n` elements (at least one) of `size` bytes: NULL on overflow
 * or when memory is exhausted; freed with free(). A large one is given huge pages where the
 * system gives them on request, as gs_grow gives the arrays it grows. */
void *gs_array_new(size_t n, size_t size);
void *gs_array_zeroed(size_t n, size_t size);

/* Appends one zeroed element and returns a pointer to it, or NULL when memory is exhausted. */
#define GS_VEC_PUSH(vec)                                                                           \
    (((vec)->n < (vec)->cap ||                                                                     \
      gs_grow((void **)&(vec)->v, &(vec)->cap, (vec)->n + 1, sizeof *(vec)->v) == 0)               \
         ? gs_zero_elem(&(vec)->v[(vec)->n++], sizeof *(vec)->v)                                   \
         : NULL)

#define GS_VEC_FREE(vec)                                                                           \
    do {                                                                                           \
        free((vec)->v);                                                                            \
        (vec)->v = NULL;                                                                           \
        (vec)->n = (vec)->cap = 0;                                                                 \
    } while (0)

/* Inline, so that the element's size is a constant where it is pushed and the zeroing a few
 * stores: a call to memset per element cost more than the rest of a push (3 M edges' and
 * points' pushes in a replay's graph, each event's in the readers). */
static inline void *gs_zero_elem(void *p, size_t size)
{
    return memset(p, 0, size);
}

/* Zeroes a block of a few hundred bytes, reset once per event (a reader's decoded event): out of
 * line, where the size is not known when compiled. gcc writes a memset of a constant 128 bytes or
 * more as `rep stosq`, whose start-up costs three times glibc's memset at this size (35 against
 * 10 ns for 312 bytes, measured on the benchmark machine of doc/performance.md). */
void gs_zero_block(void *p, size_t size);

/* Gives every array of 128 kB or more a mapping of its own, returned to the system when it is
 * freed. glibc otherwise raises this threshold as large blocks are freed (up to 32 MB), and from
 * then on the arrays freed stay in the heap of the thread that allocated them: a trace's
 * analyses (60-110 MB more at report's peak on the 521 MB benchmark input, varying from run to
 * run) and each rank's of a folder (123 MB instead of 44 MB for 64 ranks of 33 MB), for some
 * more page faults (doc/performance.md). */
void gs_map_large_arrays(void);

#endif
