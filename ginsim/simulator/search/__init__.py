"""The search player ``mc``: every choice by rollouts over worlds sampled from its
belief, with its memory of the hand and its game-win table."""
