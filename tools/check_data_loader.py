#!/usr/bin/env python3
"""Checks embdemo positions' data loader against the book's own GPTDatasetV1 and torch's
DataLoader(shuffle=False, drop_last=True) on several (T, S, B). Reference check for whoever has
python3-torch (run with /usr/bin/python3); CI does not need it. The token ids themselves are
checked against tiktoken by tests/data/gpt2_token_vectors.txt.
usage: /usr/bin/python3 tools/check_data_loader.py build/embdemo tests/data/text/journey.txt"""
import json, subprocess, sys
import torch
from torch.utils.data import Dataset, DataLoader
binary, text_file = sys.argv[1], sys.argv[2]
ids = json.loads(subprocess.run([binary, 'tokens', '--text-file', text_file, '--format', 'json'],
                                capture_output=True, text=True, check=True).stdout)['ids']
class GPTDatasetV1(Dataset):
    def __init__(self, token_ids, max_length, stride):
        self.input_ids, self.target_ids = [], []
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i:i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1: i + max_length + 1]))
    def __len__(self): return len(self.input_ids)
    def __getitem__(self, idx): return self.input_ids[idx], self.target_ids[idx]
bad = 0
for (T, S, B) in [(4,4,8),(3,1,3),(5,2,4),(7,3,2),(1,1,1),(10,7,3)]:
    ds = GPTDatasetV1(ids, T, S)
    x, y = next(iter(DataLoader(ds, batch_size=B, shuffle=False, drop_last=True)))
    out = subprocess.run([binary,'positions','--text-file',text_file,'--context',str(T),'--stride',str(S),'--batch',str(B),'--dim','2','--format','json'],capture_output=True,text=True).stdout
    j = json.loads(out)
    ok = j['ids'] == x.tolist() and j['targets'] == y.tolist() and j['loader']['windows'] == len(ds)
    bad += not ok
    print(T,S,B,ok, len(ds))
print('mismatches', bad)
sys.exit(1 if bad else 0)
