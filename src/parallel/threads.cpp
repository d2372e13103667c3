// resolve_threads (threads.hpp).
#include "parallel/threads.hpp"

#include <omp.h>

namespace bnsl {

int resolve_threads(int threads) {
  return threads > 0 ? threads : omp_get_max_threads();
}

}  // namespace bnsl
