// Interrupting a long evaluation (Ctrl-C): loops that can run for seconds call
// interruption_point() between blocks of work.
#pragma once

#include "accel/errors.hpp"

namespace accel {

// Thrown out of an evaluation that a signal interrupted (Python KeyboardInterrupt). The pending
// work it was computing stays pending and can be evaluated again.
struct Interrupted : Error {
  using Error::Error;
};

// How the host environment says that the user asked to stop (the Python bindings: a SIGINT
// arrived). Called only on the thread that started the evaluation, so it may need that thread's
// state (Python's GIL); it must be cheap, and consume the request.
using InterruptPoll = bool (*)();
void set_interrupt_poll(InterruptPoll poll);

// Throws Interrupted when an interrupt was requested: polled on the thread that started the
// evaluation, seen through a shared flag by the thread pool's workers. Cost: one relaxed load
// on workers, one call of the poll on the evaluating thread.
void interruption_point();

// Polls without throwing, for the evaluating thread while it waits for the pool's workers: a
// request is noted in the shared flag, so the workers stop at their next block.
void poll_interrupt();

// The poll for a thread that is waiting for a device (a CUDA stream) and may have let go of the
// host environment's lock while it waits (Python's GIL, released so that other threads run): it
// takes the lock briefly to look. Called every few milliseconds of such a wait, never per block.
void set_wait_interrupt_poll(InterruptPoll poll);

// interruption_point() for such a waiting thread: throws Interrupted when a request came, which
// the host environment handles as for an evaluation.
void wait_interruption_point();

// Marks the calling thread as one that never polls (the thread pool's workers).
void set_worker_thread();

// Forgets a request once the evaluation it stopped has unwound (the outermost evaluation calls
// it on its way out).
void clear_interrupt();

}  // namespace accel
