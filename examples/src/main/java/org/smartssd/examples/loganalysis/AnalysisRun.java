package org.smartssd.examples.loganalysis;

/** One run of an analysis: what it found and what it cost. */
public record AnalysisRun(AnalysisResult result, RunStatistics statistics) {}
