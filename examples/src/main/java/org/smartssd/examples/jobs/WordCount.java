package org.smartssd.examples.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.smartssd.devicemapper.JobFactory;

/**
 * Hadoop's word count made of Hadoop's own library classes, unchanged: {@code TokenCounterMapper} (each
 * whitespace-separated token of a line, with 1) and {@code IntSumReducer} as combiner and reducer, over
 * text files ({@code TextInputFormat}; gzip or bzip2 files by their suffix). Arguments: {@code INPUT...
 * OUTPUT}. Run it in the devices with {@code smartssd job org.smartssd.examples.jobs.WordCount INPUT OUTPUT}.
 */
public final class WordCount implements JobFactory {
  @Override
  public Job createJob(Configuration conf, String[] args) throws IOException {
    if (args.length < 2) {
      throw new IllegalArgumentException("word count takes INPUT... OUTPUT (" + args.length + " argument"
          + (args.length == 1 ? "" : "s") + " given)");
    }
    Job job = Job.getInstance(conf, "word count");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setInputFormatClass(TextInputFormat.class);
    for (int i = 0; i < args.length - 1; i++) {
      FileInputFormat.addInputPath(job, new Path(args[i]));
    }
    FileOutputFormat.setOutputPath(job, new Path(args[args.length - 1]));
    return job;
  }
}
