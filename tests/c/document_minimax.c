/* The first document's program, verbatim: the oracle the tests compare minimax_demo with. */
// A simple C program to find
// maximum score that
// maximizing player can get.
#include<stdio.h>
#include<string.h>
#include<stdbool.h>
#include<math.h>
#define min(a,b) (((a)<(b))?(a):(b))
#define max(a,b) (((a)>(b))?(a):(b))
// depth is current depth in game tree.
// nodeIndex is index of current node in scores[].
// isMax is true if current move is
// of maximizer, else false
// scores[] stores leaves of Game tree.
// h is maximum height of Game tree
int minimax(int depth, int nodeIndex, bool isMax,
int scores[], int h)
{
// Terminating condition. i.e
// leaf node is reached
if (depth == h)
return scores[nodeIndex];
// If current move is maximizer,
// find the maximum attainable
// value
if (isMax)
return max(minimax(depth+1, nodeIndex*2, false, scores, h),
minimax(depth+1, nodeIndex*2 + 1, false, scores, h));
// Else (If current move is Minimizer), find the minimum
// attainable value
else
return min(minimax(depth+1, nodeIndex*2, true, scores, h),
minimax(depth+1, nodeIndex*2 + 1, true, scores, h));
}
int main()
{
// The number of elements in scores must be
// a power of 2.
int scores[16];
printf("Enter no of leaf nodes :");
int x;
scanf("%d",&x);
int i;
printf("\nENter terminal utility\n");
for(i=0;i<x;i++)
{
printf("Utility %d :" ,i);
scanf("%d",&scores[i]);
printf("\n");
}
// x = sizeof(scores)/sizeof(scores[0]);
int h = log10(x)/log10(2);
int res = minimax(0, 0, true, scores, h);
printf("The optimal value is :%d", res);
return 0;
}
