// Loads folded stacks with speedscope's own importer (the one its web page runs on a dropped file) and checks
// that it recognises them and that each profile's total weight is the file's: bench/speedscope-load.
import {importProfileGroupFromText} from './src/import'
import * as fs from 'fs'
import * as path from 'path'

async function main() {
  let failed = false
  for (const file of process.argv.slice(2)) {
    const text = fs.readFileSync(file, 'utf8')
    const group = await importProfileGroupFromText(path.basename(file), text)
    if (!group) {
      console.log(`${file}: NOT RECOGNISED by speedscope`)
      failed = true
      continue
    }
    let expected = 0
    let lines = 0
    for (const line of text.split('\n')) {
      const m = /^(.*) (\d+)$/.exec(line)
      if (m) {
        expected += parseInt(m[2], 10)
        lines++
      }
    }
    for (const p of group.profiles) {
      const total = p.getTotalWeight()
      console.log(`${file}: ${lines} call paths, total weight ${total} (the file's: ${expected})`)
      if (total !== expected) failed = true
    }
  }
  process.exit(failed ? 1 : 0)
}
main()
