/* Growable arrays of plain structs: one allocation per doubling, never one per element. */
#ifndef GS_COMMON_VEC_H
#define GS_COMMON_VEC_H

#include <stddef.h>

#define GS_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *v;                                                                                      \
        size_t n, cap;                                                                             \
    }

/* Grows *data so that it holds at least `need` elements of `elsize` bytes. 0 on success. */
int gs_grow(void **data, size_t *cap, size_t need, size_t elsize);

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

void *gs_zero_elem(void *p, size_t size);

#endif
