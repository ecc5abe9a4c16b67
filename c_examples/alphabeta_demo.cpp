// The second document's C++ demo, with its own minmax replaced by libminimax's alphabeta.
// It prints "Result : 13".
#include <iostream>
#include <algorithm>
#include <cmath>
#include <climits>

#include "minimax.h"

#define SIZE(arr) (sizeof(arr) / sizeof(arr[0]))
using namespace std;
int getHeight(int n) {
   return (n == 1) ? 0 : 1 + log2(n / 2);
}
int main() {
   int values[] = {13, 8, 24, -5, 23, 15, -14, -20};
   int height = getHeight(SIZE(values));
   int result = alphabeta(height, 0, 0, true, values, INT_MIN, INT_MAX);
   cout <<"Result : " << result << "\n";
   return 0;
}
