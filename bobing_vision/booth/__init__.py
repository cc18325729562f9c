"""booth"""
