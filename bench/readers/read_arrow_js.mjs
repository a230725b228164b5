// Reads the Arrow IPC file of each dataset directory given with Arrow JS, as a JavaScript user would: the codecs of
// compressed bodies (LZ4 frame, ZSTD) are registered first, since Arrow JS ships none. Prints rows, batches, the last
// row's first and last values and a sum over every 997th row. Not part of CI:
//   cd bench/readers && npm install && node read_arrow_js.mjs /tmp/out-lz4 /tmp/out-zstd
import { readFileSync, readdirSync } from 'node:fs';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import lz4 from 'lz4js';
import { decompress as zstd } from 'fzstd';

compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (data) => Uint8Array.from(lz4.decompress(data)) });
// fzstd may hand back a view at any offset; Arrow JS needs int64 buffers aligned to 8, hence the copy
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => zstd(data).slice() });

for (const dir of process.argv.slice(2)) {
    const file = readdirSync(dir).find((name) => name.endsWith('.arrow'));
    const table = tableFromIPC(readFileSync(`${dir}/${file}`));
    const tensor = table.getChild('tensor');
    let sum = 0;
    for (let row = 0; row < table.numRows; row += 997) {
        const values = tensor.get(row);
        for (let i = 0; i < values.length; i++) sum += values.get(i);
    }
    const last = tensor.get(table.numRows - 1);
    console.log(dir, table.numRows, 'batches', table.batches.length, 'index[last]', table.getChild('index').get(table.numRows - 1),
        'last row', last.get(0), last.get(63), 'sampled sum', sum);
}
