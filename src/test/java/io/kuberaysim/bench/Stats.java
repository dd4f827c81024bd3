package io.kuberaysim.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Median, min and max of repeated measurements. */
record Stats(double median, double min, double max, int n) {

    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return new Stats(median, v.get(0), v.get(n - 1), n);
    }

    /** Per-round ratios a[i] / b[i] (measurements of one round were taken back to back). */
    static Stats ratio(List<Double> a, List<Double> b) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            r.add(b.get(i) == 0 ? Double.POSITIVE_INFINITY : a.get(i) / b.get(i));
        }
        return of(r);
    }
}
