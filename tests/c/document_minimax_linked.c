/* The first document's program with its own minimax removed: it must compile and link
 * unchanged against minimax.h and libminimax, and print what the document's program prints. */
// A simple C program to find
// maximum score that
// maximizing player can get.
#include<stdio.h>
#include<string.h>
#include<stdbool.h>
#include<math.h>
#include "minimax.h"
#define min(a,b) (((a)<(b))?(a):(b))
#define max(a,b) (((a)>(b))?(a):(b))
// depth is current depth in game tree.
// nodeIndex is index of current node in scores[].
// isMax is true if current move is
// of maximizer, else false
// scores[] stores leaves of Game tree.
// h is maximum height of Game tree
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
