import { QUEUES, queuesWorkedBy } from './jobs';

describe('queuesWorkedBy', () => {
  it("names every queue an app runs jobs of, its sweeps and its account-deletion part's included", () => {
    expect(queuesWorkedBy('progress').sort()).toEqual(
      [QUEUES.export, QUEUES.deletionProgress, QUEUES.reminders, QUEUES.sparkUploads, QUEUES.exportSweep].sort(),
    );
    expect(queuesWorkedBy('auth')).toEqual([QUEUES.deletionPartsSweep]);
    expect(queuesWorkedBy('content')).toEqual([]);
  });
});
