"""Custodian Dice: rules kernel, options, position strings, notation and the game API."""

from diceboard.games.custodian.game import CustodianGame, CustodianState

__all__ = ["CustodianGame", "CustodianState"]
