"""The learned card play: features a player could name, a model learned from the search
player ``mc`` over them, and its weights shipped with the package."""
