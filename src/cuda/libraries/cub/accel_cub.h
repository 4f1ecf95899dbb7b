/* The C interface of libaccel_cub.so: CUB's device algorithms (sort, scan, select) for accelpy.
 *
 * The library is built by nvcc when CMake finds a CUDA compiler and is opened with dlopen by
 * the core (src/cuda/cub_library.cpp), so that accelpy builds and imports without the toolkit.
 * It links the CUDA runtime statically and needs only the driver at run time.
 *
 * Every function returns a cudaError_t (0: success) and works in stream order on `stream`.
 * Functions with temporary storage follow CUB's protocol: called with temp == NULL they only
 * store the bytes needed in *temp_bytes; called again with that much device memory at `temp`
 * (256-byte aligned) they do the work. The caller allocates (accelpy's stream-ordered pool).
 * `dtype` is the value of accel::DType (bool, int8, uint8, ..., complex128, in that order).
 * All arrays are contiguous device memory. */
#ifndef ACCEL_CUB_H
#define ACCEL_CUB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_CUB_ABI_VERSION 1

typedef struct CUstream_st* accel_cub_stream;

#if defined(__GNUC__)
#define ACCEL_CUB_API __attribute__((visibility("default")))
#else
#define ACCEL_CUB_API
#endif

ACCEL_CUB_API int accel_cub_abi_version(void);
ACCEL_CUB_API const char* accel_cub_error_string(int error);

/* Sorts `rows` rows of `len` elements each (keys_in: rows * len elements), stably, in NumPy's
 * order (NaN last; descending: the reverse order with equal elements kept in input order, so
 * NaN first). keys_out (sorted values) and indices_out (int64 positions within each row) may
 * each be NULL. keys_in is not modified. */
ACCEL_CUB_API int accel_cub_sort(int dtype, int descending, const void* keys_in, void* keys_out,
                                 int64_t* indices_out, int64_t rows, int64_t len, void* temp,
                                 size_t* temp_bytes, accel_cub_stream stream);

/* Inclusive scan of each of `rows` rows of `len` elements: op 0 sums, op 1 multiplies. `dtype`
 * is the accumulation dtype of in and out: uint64 (all integers, which wrap alike), float16,
 * bfloat16, float32, float64, complex64 or complex128. in may equal out. */
ACCEL_CUB_API int accel_cub_scan(int dtype, int op, const void* in, void* out, int64_t rows,
                                 int64_t len, void* temp, size_t* temp_bytes,
                                 accel_cub_stream stream);

/* Compaction: copies the elements of `in` (elem_size 1, 2, 4, 8 or 16 bytes) whose flag is
 * true to `out`, in order, and stores their number at num_selected (device memory). in == NULL
 * selects the positions 0..n-1 themselves as int64 (nonzero). */
ACCEL_CUB_API int accel_cub_select_flagged(size_t elem_size, const void* in, const uint8_t* flags,
                                           void* out, int64_t* num_selected, int64_t n, void* temp,
                                           size_t* temp_bytes, accel_cub_stream stream);

/* out[i] = src[index[i]] for i < n (elem_size 1, 2, 4, 8 or 16 bytes); indices are trusted. */
ACCEL_CUB_API int accel_cub_gather(size_t elem_size, const void* src, const int64_t* index,
                                   void* out, int64_t n, accel_cub_stream stream);

/* For each of the n values, the insertion point in `sorted` (len elements, ascending in NumPy's
 * order, or in that order through `sorter` when not NULL): the first position whose element is
 * not before the value (right == 0) or is after it (right == 1). */
ACCEL_CUB_API int accel_cub_searchsorted(int dtype, int right, const void* sorted, int64_t len,
                                         const int64_t* sorter, const void* values, int64_t n,
                                         int64_t* out, accel_cub_stream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACCEL_CUB_H */
