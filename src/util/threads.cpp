// resolve_threads (threads.hpp).
#include "util/threads.hpp"

#include <omp.h>
#include <pthread.h>

#include <cstring>
#include <string>
#include <vector>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

// Each probe thread waits until every one exists, so that all their stacks are held at once,
// as the team's are.
struct Gate {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t open_cond = PTHREAD_COND_INITIALIZER;
  bool open = false;
};

void* wait_at(void* arg) {
  Gate& g = *static_cast<Gate*>(arg);
  pthread_mutex_lock(&g.mutex);
  while (!g.open) pthread_cond_wait(&g.open_cond, &g.mutex);
  pthread_mutex_unlock(&g.mutex);
  return nullptr;
}

}  // namespace

int resolve_threads(int threads) {
  return threads > 0 ? threads : omp_get_max_threads();
}

void start_threads(int threads) {
  const int team = resolve_threads(threads);
  if (team <= 1) return;
  Gate gate;
  std::vector<pthread_t> started;
  int error = 0;
  for (int i = 1; i < team && error == 0; ++i) {
    pthread_t id;
    error = pthread_create(&id, nullptr, wait_at, &gate);
    if (error == 0) started.push_back(id);
  }
  pthread_mutex_lock(&gate.mutex);
  gate.open = true;
  pthread_cond_broadcast(&gate.open_cond);
  pthread_mutex_unlock(&gate.mutex);
  for (pthread_t id : started) pthread_join(id, nullptr);
  if (error != 0)
    throw RuntimeError("cannot start " + std::to_string(team) + " threads (" +
                       std::strerror(error) + " after " + std::to_string(started.size() + 1) +
                       "): too little memory (ulimit -v) or too many processes for them; give "
                       "fewer with --threads");
#pragma omp parallel num_threads(team)
  {}
}

}  // namespace bnsl
