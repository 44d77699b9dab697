# Per-thread scratch memory for kernels that Python calls one position at a time.
#
# thread_scratch(size) gives the calling thread its own block of `size` bytes, allocated
# (zeroed) on first use and freed when the thread ends (POSIX threads; on Windows the block lives until
# the process ends). Each module that cimports this file has its own block per thread, so
# a module must always ask for the same size (one struct per module) and must not use the
# block re-entrantly (nothing that could call back into Python while it is in use).
# Returns NULL when memory runs out.
cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(_WIN32)
    static __declspec(thread) void* bgcore_scratch_block = NULL;
    static void* bgcore_thread_scratch(size_t size) {
        if (bgcore_scratch_block == NULL) bgcore_scratch_block = calloc(1, size);
        return bgcore_scratch_block;
    }
    #else
    #include <pthread.h>
    static pthread_key_t bgcore_scratch_key;
    static pthread_once_t bgcore_scratch_once = PTHREAD_ONCE_INIT;
    static int bgcore_scratch_key_made = 0;
    static void bgcore_make_scratch_key(void) {
        bgcore_scratch_key_made = pthread_key_create(&bgcore_scratch_key, free) == 0;
    }
    static void* bgcore_thread_scratch(size_t size) {
        void* block;
        pthread_once(&bgcore_scratch_once, bgcore_make_scratch_key);
        if (!bgcore_scratch_key_made) return NULL;
        block = pthread_getspecific(bgcore_scratch_key);
        if (block == NULL) {
            block = calloc(1, size);
            if (block != NULL && pthread_setspecific(bgcore_scratch_key, block) != 0) {
                free(block);
                block = NULL;
            }
        }
        return block;
    }
    #endif
    """
    void* thread_scratch "bgcore_thread_scratch"(size_t size) noexcept nogil
