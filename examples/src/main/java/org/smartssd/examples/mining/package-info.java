/**
 * The iSSD's and the XSD's data-mining workloads (k-means, PageRank, Apriori) as ordinary Hadoop jobs
 * (new MapReduce API: a mapper, a combiner and a reducer each), run one job an iteration, on the host
 * over objfs or with their map phase inside the devices through {@code DeviceJobClient}, each checked
 * against a direct computation in memory ({@code smartssd mine}).
 *
 * <p>The classes a job runs in the device (mappers, combiners, their Writables and what they read of
 * the job's configuration and side files: {@link org.smartssd.examples.mining.Centroids},
 * {@link org.smartssd.examples.mining.RankVector}, {@link org.smartssd.examples.mining.Candidates}) use
 * only what the device's sandbox lets tasklet code use: they never set a configuration or write a file, and
 * read their side files (the last iteration's state, the out-degrees) through {@code FileSystem.get}, which
 * in the device reads the device's own objects.
 */
package org.smartssd.examples.mining;
