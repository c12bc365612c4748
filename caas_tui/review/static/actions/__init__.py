"""Behaviour a claim states: calls and retries (``behaviour``), "at once" against queued work
(``timing``), behaviour only a boolean flag turns on (``flagclaims``), how many values a loop
produces (``countloops``) and what a loop keeps or drops (``yieldshape``).
"""
