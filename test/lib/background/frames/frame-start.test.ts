import { describe, expect, it, vi } from 'vitest';
import { startAnnotatorInFrame, type ScriptInjector } from '@/lib/background/frames/frame-start';
import { ANNOTATOR_SCRIPT } from '@/lib/extension/content-scripts';

describe('startAnnotatorInFrame', () => {
  const injector = () => ({ executeScript: vi.fn<ScriptInjector['executeScript']>(async () => []) });

  it('injects the annotator into the asking document when the browser names it (Chrome)', async () => {
    const scripting = injector();
    await startAnnotatorInFrame(scripting, { tabId: 3, frameId: 9, documentId: 'ABC' });
    expect(scripting.executeScript).toHaveBeenCalledWith({
      target: { tabId: 3, documentIds: ['ABC'] },
      files: [`/${ANNOTATOR_SCRIPT}`],
    });
  });

  it('else into the frame (Firefox)', async () => {
    const scripting = injector();
    await startAnnotatorInFrame(scripting, { tabId: 3, frameId: 9 });
    expect(scripting.executeScript).toHaveBeenCalledWith({
      target: { tabId: 3, frameIds: [9] },
      files: [`/${ANNOTATOR_SCRIPT}`],
    });
  });

  it('passes a refusal on (no host access, the frame is gone)', async () => {
    const scripting = injector();
    scripting.executeScript.mockRejectedValueOnce(new Error('Cannot access contents of the page'));
    await expect(startAnnotatorInFrame(scripting, { tabId: 3, frameId: 9 })).rejects.toThrow(/Cannot access/);
  });
});
