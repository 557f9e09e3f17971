// A WebSocket text frame as bytes, framed by ws (`Sender.frame`: the library exports it, its type declarations do
// not). A server's frames are not masked; a client's must be.
import * as ws from 'ws';

const { Sender } = ws as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};
const TEXT = 1;

export function textFrame(payload: Buffer, options: { masked: boolean } = { masked: false }): Buffer {
  return Buffer.concat(
    Sender.frame(payload, { fin: true, opcode: TEXT, mask: options.masked, readOnly: true, rsv1: false }),
  );
}
