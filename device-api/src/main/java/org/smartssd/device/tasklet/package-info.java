/**
 * What a tasklet implements and what it sees: the four events of the Smart SSD's in-storage
 * processing engine (Kang et al., MSST 2013). The host installs a tasklet with {@code create_object},
 * runs it over objects with {@code execute_object} and polls its results with {@code read_object}.
 *
 * <p>Life of a tasklet in one execution: the engine runs one instance per lane (device core), each
 * with its own state. Each instance gets {@link Tasklet#onCreate}, then {@link Tasklet#onExecute},
 * then {@link Tasklet#onDataAvailable} once per completed internal read of the data its lane serves,
 * {@link Tasklet#onRead} with {@code last = false} when the host has polled since the last event,
 * and finally {@link Tasklet#onRead} with {@code last = true}. All events of one instance run on one
 * thread, one at a time.
 */
package org.smartssd.device.tasklet;
