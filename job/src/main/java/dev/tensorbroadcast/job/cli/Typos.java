package dev.tensorbroadcast.job.cli;

/** How far a typed word is from a name: edits (insert, delete, replace) and swaps of two neighbouring letters. */
final class Typos {
    private Typos() {}

    static int distance(String typed, String name) {
        int[][] cost = new int[typed.length() + 1][name.length() + 1];
        for (int i = 0; i <= typed.length(); i++) {
            cost[i][0] = i;
        }
        for (int j = 0; j <= name.length(); j++) {
            cost[0][j] = j;
        }
        for (int i = 1; i <= typed.length(); i++) {
            for (int j = 1; j <= name.length(); j++) {
                int same = typed.charAt(i - 1) == name.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(cost[i - 1][j] + 1, cost[i][j - 1] + 1), cost[i - 1][j - 1] + same);
                if (i > 1
                        && j > 1
                        && typed.charAt(i - 1) == name.charAt(j - 2)
                        && typed.charAt(i - 2) == name.charAt(j - 1)) {
                    best = Math.min(best, cost[i - 2][j - 2] + 1);
                }
                cost[i][j] = best;
            }
        }
        return cost[typed.length()][name.length()];
    }
}
